// `cdk synth` runs this (cdk.json): the staging and production stages of the pet store.
import { App } from 'aws-cdk-lib';
import { addPetstoreStages } from '#lib/petstore-app.ts';

const app = new App();
addPetstoreStages(app);
app.synth();
